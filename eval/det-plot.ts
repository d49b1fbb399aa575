/** A DET plot (FNMR against FMR, both on log axes) as a self-contained SVG. */

export interface DetSeries {
  readonly name: string;
  readonly points: ReadonlyArray<{ fmr: number; fnmr: number }>;
}

const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b'];
const WIDTH = 640;
const HEIGHT = 480;
const MARGIN = { left: 70, right: 20, top: 30, bottom: 50 };
const MIN_LOG = -6;
const FNMR_MIN_LOG = -3;

export function detSvg(
  title: string,
  series: readonly DetSeries[],
  axes: { x: string; y: string } = { x: 'FMR (false match rate)', y: 'FNMR (false non-match rate)' },
): string {
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (fmr: number) => MARGIN.left + ((Math.log10(Math.max(fmr, 10 ** MIN_LOG)) - MIN_LOG) / -MIN_LOG) * plotW;
  const y = (fnmr: number) =>
    MARGIN.top + (1 - (Math.log10(Math.max(fnmr, 10 ** FNMR_MIN_LOG)) - FNMR_MIN_LOG) / -FNMR_MIN_LOG) * plotH;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${WIDTH / 2}" y="18" text-anchor="middle" font-size="14">${escape(title)}</text>`,
  ];
  for (let l = MIN_LOG; l <= 0; l++) {
    parts.push(
      `<line x1="${x(10 ** l)}" y1="${MARGIN.top}" x2="${x(10 ** l)}" y2="${MARGIN.top + plotH}" stroke="#ddd"/>`,
    );
    parts.push(`<text x="${x(10 ** l)}" y="${HEIGHT - 30}" text-anchor="middle">1e${l}</text>`);
  }
  for (let l = FNMR_MIN_LOG; l <= 0; l++) {
    parts.push(
      `<line x1="${MARGIN.left}" y1="${y(10 ** l)}" x2="${MARGIN.left + plotW}" y2="${y(10 ** l)}" stroke="#ddd"/>`,
    );
    parts.push(`<text x="${MARGIN.left - 8}" y="${y(10 ** l) + 4}" text-anchor="end">1e${l}</text>`);
  }
  parts.push(`<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - 8}" text-anchor="middle">${escape(axes.x)}</text>`);
  parts.push(
    `<text transform="translate(16 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle">${escape(axes.y)}</text>`,
  );
  series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length] ?? 'black'; // in range: the palette is not empty
    const path = s.points.map((p) => `${x(p.fmr).toFixed(1)},${y(p.fnmr).toFixed(1)}`).join(' ');
    parts.push(`<polyline fill="none" stroke="${colour}" stroke-width="2" points="${path}"/>`);
    parts.push(
      `<rect x="${MARGIN.left + plotW - 230}" y="${MARGIN.top + 10 + i * 18}" width="12" height="3" fill="${colour}"/>`,
    );
    parts.push(`<text x="${MARGIN.left + plotW - 212}" y="${MARGIN.top + 15 + i * 18}">${escape(s.name)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
