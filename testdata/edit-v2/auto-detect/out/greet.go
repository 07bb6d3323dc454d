package greet

func Greet() string {
	return "Hello"
}
