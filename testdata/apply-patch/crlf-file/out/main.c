#include <stdio.h>

int main(void) {
	int cfg = load();
	printf("starting with %d\n", cfg);
	run(cfg);
	return 0;
}
