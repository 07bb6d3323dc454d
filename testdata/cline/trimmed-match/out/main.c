int main(void) {
	int x = 2;
	return x;
}
