#include <stdio.h>

int main(void) {
	int cfg = load();
	run(cfg);
	return 0;
}
