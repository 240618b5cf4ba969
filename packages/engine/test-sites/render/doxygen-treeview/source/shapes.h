/**
 * @file shapes.h
 * @brief Shapes and their areas.
 */

/** @mainpage Shapes
 * A tiny library to show Doxygen's tree view. See @ref shape_area and the @ref usage page.
 */

/** @page usage Usage
 * @section usage_build Building
 * Compile shapes.c with any C compiler.
 * @section usage_call Calling
 * Call shape_area() on a @ref Shape.
 */

/** A shape: a width and a height. */
typedef struct Shape {
  double width;  /**< The width. */
  double height; /**< The height. */
} Shape;

/** The area of a shape.
 * @param shape the shape
 * @return width times height
 */
double shape_area(const Shape *shape);

/** The perimeter of a shape. */
double shape_perimeter(const Shape *shape);
