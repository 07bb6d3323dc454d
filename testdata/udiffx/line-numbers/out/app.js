const express = require("express");
const app = express();

app.get("/", (req, res) => {
  res.send("hello, world");
});

app.get("/health", (req, res) => {
  res.json({ status: "ok" });
});

app.listen(process.env.PORT || 3000);
