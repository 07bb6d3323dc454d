int area(int w, int h) {
    int area = 0;
    if (w > 0 && h > 0) {
        area = w * h;
    } else {
        area = -1;
    }
    return area;
}

struct Shape
{
    const char *open = "{";
    int sides = 4;
};

int after = 1;

const char *close() {
    return "}";
}

int last = 2;
