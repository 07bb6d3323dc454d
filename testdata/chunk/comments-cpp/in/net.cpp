int port = 80;      // default HTTP port
/* retries */
int retries = 3;    /* per request */
const char *url = "http://a";
const char *url = "http://b";
