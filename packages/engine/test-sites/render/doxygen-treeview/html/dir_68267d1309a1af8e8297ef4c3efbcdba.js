var dir_68267d1309a1af8e8297ef4c3efbcdba =
[
    [ "shapes.h", "shapes_8h.html", "shapes_8h" ]
];