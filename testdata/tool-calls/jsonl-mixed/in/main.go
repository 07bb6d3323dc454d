package main

func main() {
	println("v1")
}
