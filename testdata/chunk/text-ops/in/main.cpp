#include <cstdio>
#include "debug.h"

int counter = 0;

void log(const char *msg) {
    std::printf("%s\n", msg);
}

int main() {
    log("start");
    counter++;
    return 0;
}
