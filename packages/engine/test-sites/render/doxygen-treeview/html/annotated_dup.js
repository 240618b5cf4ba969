var annotated_dup =
[
    [ "Shape", "structShape.html", "structShape" ]
];