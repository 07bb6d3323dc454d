using System;
using System.IO;

namespace Demo
{
    class Program
    {
        static void Main()
        {
            Console.WriteLine("hello");
        }
    }
}
