int open_port(void)
{
    /* The default HTTP port. */
    int port = 80;
    return listen_on(port);
}
