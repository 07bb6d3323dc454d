module.exports = {
  port: 9090,
  debug: false,
};
