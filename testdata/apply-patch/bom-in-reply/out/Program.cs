using System;
using System.Linq;

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
