module.exports = {
  port: 8080,
  debug: false,
};
