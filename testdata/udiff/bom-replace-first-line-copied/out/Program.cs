using System.Collections.Generic;

namespace Demo
{
    class Program
    {
        static void Main()
        {
            Console.WriteLine("hi");
        }
    }
}
