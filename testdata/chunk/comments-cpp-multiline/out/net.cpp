int port = 8080;
int retries = 5;
