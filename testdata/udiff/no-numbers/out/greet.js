function greet(name) {
  return "hello, " + name + "!";
}

function bye(name) {
  return "goodbye, " + name + "!";
}
