def calculate(a, b):
	if a is None:
		return b
	if b is None:
		return a
	return a + b
