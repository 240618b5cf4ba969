// HTML that stresses a parser's tree rules and tokenizer, for the tests that compare our readers
// (the link extractor's TagReader, the rules' tokenizer and tree builder) with htmlparser2.

/** Cases every reader must see as htmlparser2 does: tags, entities, raw text, foreign content. */
export const readerHtml = [
  '<!DOCTYPE html><HTML LANG=en><Head><TITLE>A &amp; B</TITLE></head><BODY>',
  '<a HREF="/one" href="/two" ID=x>1</a><A href=/three/>3</A>',
  '<img src="a&amp;b.png?x=1&y=2&copy" data-x=\'q&quot;\'><IMAGE src=old.png>',
  '<form id=f1><form id=f2><input id=i></form></form>',
  '</p><p>one<p>two</br><li>a<li>b<table><tr><td>1<td>2</table>',
  '<svg><a href="#s"/><foreignObject><p id=in>t</p></foreignObject><title>svg title</title><path/></svg>',
  '<math><mi>x</mi><![CDATA[raw <a href=no>]]></math><![CDATA[comment in html]]>',
  '<script>var a = "<a href=no>"; </scr' + 'ipt><style>a{background:url(x.png)}</style>',
  '<textarea><a href=no></textarea><noscript><a href="/ns">n</a></noscript>',
  '<!-- <a href="commented"> --><?php echo 1 ?><a href="/after" rel=next>x</a>',
  '<div style="background: url(&quot;y.png&quot;)"><span>text &lt; more &#x41;&#66;</span>',
  '<a href = "/spaced" ><a href=\'/single\'><a href>empty</a><a>none</a>',
  '<picture><source srcset=a.webp><img src=b.png></div></picture><p>x',
  '<a href="/unterminated',
  '<p>unclosed <b>tags <i>at the end',
  '<title>t</title><style>unterminated style',
  '<a href="?a=1&amp;b=2&copy=3&notin;&notit;&amp=x">e</a><img src=\'&#x41;&#0;&amp\' data-x=&amp=1>',
  '<title>&lt;T&gt; &amp</title><textarea>&amp;<b>bold?</b></textarea><xmp>&amp;<i></xmp>',
  '<iframe>&amp;<p>raw</iframe><noscript>&amp;<a href="&#47;ns">n</a></noscript>',
  '<svg><title>&amp; svg</title><script>&lt;x</script><style>&amp;</style></svg>&am&#x41;',
  '<p>before<plaintext>&amp;<a href=x>all text</a>',
];

/** readerHtml and the corners a whole-page tokenizer and tree builder must also get right. */
export const trickyHtml = [
  ...readerHtml,
  // Comments, doctypes, processing instructions, CDATA.
  '<!doctype html><!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN"><!doctypefoo>',
  '<?xml version="1.0" encoding="utf-8"?><!-- a -- b --><!----><!---><!--><!--->x--!><!x y><!>',
  '<![CDATA[x]]><![CDATA[]]]><![cdata[y]]><svg><![CDATA[a<b]]>text<![CDATA[c]]></svg>',
  // Attributes.
  '<a b c=d e=\'f\' g=h i = j k="l"m=n o/p=q r= >x</a><a =x ==y "q"=1 \'r\'=2>',
  '<a href=x HREF=y Href="z" class=a CLASS=b data-A=1 data-a=2 __proto__=p constructor=c>',
  '<img alt="&lt;&gt;&amp;&quot;&apos;&#39;&#x27;&nbsp;&copy;&not &notit;">',
  '<P Class=x><DiV ID=y><SPAN>t</SPAN></DIV></p><İmg><ſcript>',
  // Tables, lists, implied closes.
  '<table><thead><tr><th>a<th>b<tbody><tr><td>1<td><table><tr><td>in</table><td>3<tfoot><tr><td>f</table>',
  '<ul><li>a<ul><li>b<li>c</ul><li>d</ul><ol><li><p>x<li>y</ol><dl><dt>a<dd>b<dt>c</dl>',
  '<select><option>a<option>b<optgroup><option>c</select><ruby>a<rt>b<rp>c<rt>d</ruby>',
  '<h1>a<h2>b</h1><p>c<h3>d<p>e<div>f<p>g<table>h</table></div><p><button><input><button>',
  '<head><link rel=a><script>x</script><body><p>y</body></html>',
  // Foreign content.
  '<svg viewBox="0 0 1 1"><clipPath id=c><rect/></clippath><linearGradient/><image href=x>',
  '<svg><foreignObject><div><clippath></clippath><image></div></foreignObject></svg><image>',
  '<svg><foreignobject><svg><path/></svg><p/>x</foreignObject><desc><b/>y</desc><title/></svg>',
  '<math><mi><b/>x</mi><mtext>y</mtext><annotation-xml><p>z</p></annotation-xml><mo/></math>',
  '<svg/><math/><p>after</p><div/>not self-closed</div><br/><svg><script>a<b</script></svg>',
  '<svg><clipPath><foreignObject><p></clippath></svg><title><svg><title>x</title></svg>',
  // White space, stray characters, odd end tags.
  '\n\t <p>  </p>\r\n  <div>\n</div> \n',
  'a < b <> c <3 d <<e>> f </> g </ h> i </div x=y> j </p > k </ br> l </img> m</br >',
  '<div>a</span>b<form>c</form>d</div><form>e<form>f</form>g',
  '<a href="x"</a><b <c d="e"f>',
  '<script>a</script x><script>b</SCRIPT ><style>c</styles></style><title>d</title >',
  // Raw text ends as the Tokenizer matches end tags (`c | 0x20`: \x1c is `<`, \x0f is `/`).
  '<script>a<</script><style><</style/><xmp>a<<</xmp><title>a<</title><textarea><</textarea>',
  '<title>a\x1c/title>b</title><script>\x1c/script>c<\x0fscript>d</script><script>e\x1c/script>f',
  '<!--a--!-->b<!--c--!x-->d<!--e---->f<!--g--!--!>h<![CDATA[i]]]>j<![CDATA[k]x]]><![>l<![CD>m<!d>n<!doc>o<!->p',
];

/** The endings a page can be cut at: inside a tag, a comment, a declaration, CDATA … */
export const unfinishedHtml = [
  '<div',
  '<div ',
  '<div a',
  '<div a=',
  '<div a="b',
  "<div a='b",
  '<div a=b',
  '<div/',
  '</div',
  '</div ',
  '</',
  '<',
  '<!',
  '<!-',
  '<!--',
  '<!-- x',
  '<!-- x -',
  '<!-- x --',
  '<!d',
  '<!doc',
  '<!doctype',
  '<!doctype html',
  '<![CD',
  '<![CDATA[x',
  '<![CDATA[x]',
  '<![CDATA[x]]',
  '<?xml',
  '<!x',
  '<script>x</scr',
  '<textarea>x</text',
  '<title>x',
  '<plaintext>x',
  '&amp',
  '<svg><path',
  '<svg><path/',
];

/** Seeded random documents built from pieces that stress the tree rules and the tokenizer. */
export function randomHtmlDocuments(count: number, seed: number): string[] {
  const pieces = [
    ...trickyHtml,
    ...unfinishedHtml,
    ...['<a href="/x">', '</a>', '<p>', '</p>', '<div id="d">', '</div>', '<svg>', '</svg>'],
    ...['<picture>', '</picture>', '<li>', '<ul>', '</ul>', '<br/>', '</br>', 'text & more '],
    ...['&nbsp;&amp;', '\n', '<img src=i.png>', '<title>', '</title>', '<style>', '</style>'],
    ...['<form>', '</form>', '&am', 'p;', '&#x', '41;', '<a href="x?y=1&amp;z=&lt;2">'],
    ...['<script>&amp;<a>', '</script>', '<textarea>', '</textarea>', '<xmp>', '</xmp>'],
    ...['<!-- c -->', '-->', '<![CDATA[', ']]>', '<math>', '</math>', '<foreignObject>'],
    ...['</foreignObject>', '<clipPath>', '</clipPath>', '<path/>', '<table>', '<tr>', '<td>'],
    ...['</table>', '<head>', '</head>', '<body>', '<option>', '<select>', '<h2>', '<P>', '>'],
    ...[' ', '"', "'", '=', '/', '<b>', '</b>', '<!doctype html>', '<?x?>', '<mi>', '<desc>'],
  ];
  return randomJoins(pieces, count, seed, { minPieces: 5, extraPieces: 40 });
}

/**
 * `count` documents of randomly chosen pieces, each of `minPieces` plus up to `extraPieces`
 * pieces, from a seeded generator: the same documents on every run.
 */
export function randomJoins(
  pieces: readonly string[],
  count: number,
  seed: number,
  { minPieces, extraPieces }: { minPieces: number; extraPieces: number },
): string[] {
  let state = seed;
  const next = () => ((state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) * 0.9999;
  return Array.from({ length: count }, () =>
    Array.from(
      { length: minPieces + Math.floor(next() * extraPieces) },
      () => pieces[Math.floor(next() * pieces.length)]!,
    ).join(''),
  );
}
