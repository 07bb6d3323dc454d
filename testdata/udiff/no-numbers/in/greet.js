function greet(name) {
  return "hi " + name;
}

function bye(name) {
  return "bye " + name;
}
