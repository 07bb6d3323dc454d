function total(items) {
  let sum = 0;
  for (const item of items) {
    const quantity = item.quantity ?? 1;
    sum += item.price * quantity;
  }
  return sum;
}

module.exports = { total };
