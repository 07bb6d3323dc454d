int main(void) {
    if (argc > 1) {
        return 1;
    return 0;
}
