package greet

func Greet() string {
	return "Helo"
}
