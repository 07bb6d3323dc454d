struct Square {
    int area() const {
        return side * side;
    }
    int side;
};

struct Rect {
    int area() const {
        return w * h > 0 ? w * h : 0;
    }
    int w, h;
};
