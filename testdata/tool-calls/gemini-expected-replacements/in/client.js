const a = fetch(OLD_URL);
const b = fetch(OLD_URL);
