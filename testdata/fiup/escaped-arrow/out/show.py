def show(a, b):
    print(a, "→", b)
    print(f"{a} → {b}")
