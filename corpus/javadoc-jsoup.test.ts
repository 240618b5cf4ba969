// javadoc (OpenJDK 17) output from Debian's libjsoup-java-doc: see sites/javadoc-jsoup/SOURCE.md.
import { expect, it } from 'vitest';
import { describeRealSite } from './real-site.js';

describeRealSite('javadoc-jsoup', (get) => {
  it("reports the stylesheet's @import of a dejavu.css Debian does not ship, where it is written", () => {
    const { served, scan, truth } = get();
    const dejavu = served.url('/resources/fonts/dejavu.css');
    const links = scan.links.filter((link) => link.url === dejavu);
    expect(
      links.map(({ source, element, attribute, line, column, check }) => ({
        source,
        element,
        attribute,
        line,
        column,
        state: check.state,
      })),
    ).toEqual([
      {
        source: served.url('/stylesheet.css'),
        element: 'css',
        attribute: '@import',
        line: 5,
        column: 9,
        state: 'broken',
      },
    ]);
    expect(truth.broken).toContainEqual(
      expect.objectContaining({ url: dejavu, reason: 'Not Found', referenceCount: 1 }),
    );
    // The stylesheet's images are found and fine.
    expect(scan.links.filter((link) => link.source === served.url('/stylesheet.css'))).toHaveLength(
      3,
    );
  });
});
