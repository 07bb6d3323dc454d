#include "foo.h"

int Foo::value() const
{
    // old logic
    return compute() + 1;
}

void Foo::reset()
{
    value_ = 0;
}
