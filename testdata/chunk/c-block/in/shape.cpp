int area(int w, int h) {
    int area = 0;
    if (w > 0) {
        area = w * h; // }
    } else {
        area = -1;
    }
    return area;
}

struct Shape
{
    const char *open = "{";
    char close = '}';
    /* } */ int sides = 3;
};

int after = 1;

const char *close() {
    return R"(}})";
}

int last = 2;
