var structShape =
[
    [ "height", "structShape.html#a1e6a39158b710324738ff0bb74bbbccb", null ],
    [ "width", "structShape.html#a018c8854f87fe06796659eb96bf588bc", null ]
];