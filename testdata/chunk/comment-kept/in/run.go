func run() {
	setup()
	// Wait for the workers.
	wait()
	report()
}
