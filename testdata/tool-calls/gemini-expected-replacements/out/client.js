const a = fetch(API_URL);
const b = fetch(API_URL);
