int port = 80;
/* how often
   we try */
int retries = 3;
