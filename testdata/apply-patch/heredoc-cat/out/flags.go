package main

import "flag"

var verbose = flag.Bool("verbose", false, "verbose output")
