export function register(app) {
  app.use(logger);
  app.use(timer);
  // ... existing code ...
}
