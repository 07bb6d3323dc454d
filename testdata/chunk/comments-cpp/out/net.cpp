int port = 8080;
int retries = 5;
const char *url = "http://a";
const char *url = "https://b";
