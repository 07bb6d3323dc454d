// SPDX-License-Identifier: MIT
#include <cstdio>

static int counter = 0;

void log(const char *msg) {
    std::printf("%s\n", msg);
}

void reset() { counter = 0; }

int main() {
    log("start");
    log("running");
    counter++;
    return 0;
}
// end of main.cpp
