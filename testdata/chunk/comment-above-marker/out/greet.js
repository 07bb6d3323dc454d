const greeting = 'hi';

/**
 * Greets someone by name.
 */
function greet(name) {
  return greeting + ', ' + name + '!';
}
