struct Square {
    int area() const {
        return side * side;
    }
    int side;
};

struct Rect {
    int area() const {
        return w * h;
    }
    int w, h;
};
