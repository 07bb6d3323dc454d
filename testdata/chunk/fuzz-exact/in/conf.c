void go(int ready) {
    if (ready) {
        start();

        run();
    }
}
