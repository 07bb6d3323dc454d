def calculate(a, b):
	if a is None:
		return b
	return a + b
