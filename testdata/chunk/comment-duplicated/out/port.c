int open_port(void)
{
    int backlog = 16;
    /* The default HTTP port. */
    int port = 80;
    return listen_on(port);
}
