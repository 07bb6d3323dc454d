package main

import "strconv"

// plural counts n things: plural(1, "reply", "replies") is "1 reply".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// wasWere is the verb that agrees with n things.
func wasWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}
