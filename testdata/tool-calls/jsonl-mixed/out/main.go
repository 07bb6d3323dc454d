package main

func main() {
	println("v2")
}
