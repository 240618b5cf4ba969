var shapes_8h =
[
    [ "Shape", "structShape.html", "structShape" ],
    [ "Shape", "shapes_8h.html#af9a178f4454c17dee9f11ea39cd27dbf", null ],
    [ "shape_area", "shapes_8h.html#a9ca9b97d26c94ce68c9c2abc428ebb87", null ],
    [ "shape_perimeter", "shapes_8h.html#a1851afdf9574876e28b0e9f9c82b1888", null ]
];