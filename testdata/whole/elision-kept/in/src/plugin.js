export function register(app) {
  app.use(logger);
  // ... existing code ...
}
