using System.Text;

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
