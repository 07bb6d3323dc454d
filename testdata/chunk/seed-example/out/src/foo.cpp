#include "foo.h"

int Foo::value() const
{
    return 42;
}

void Foo::reset()
{
    value_ = 0;
}
