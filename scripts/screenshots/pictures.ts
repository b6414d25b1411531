import sharp from 'sharp';

/** What a picture shows: a product drawn with a few shapes, on a background of one hue. */
export type Motif = 'lamp' | 'chair' | 'mug' | 'plant' | 'clock' | 'vase';

const WIDTH = 960;
const HEIGHT = 720;

/** Simple vector drawings, centred on a 960 × 720 canvas. */
const MOTIFS: Record<Motif, (ink: string, accent: string) => string> = {
  lamp: (ink, accent) => `
    <path d="M380 200 L580 200 L640 360 L320 360 Z" fill="${accent}"/>
    <rect x="472" y="360" width="16" height="220" fill="${ink}"/>
    <ellipse cx="480" cy="590" rx="120" ry="26" fill="${ink}"/>
    <ellipse cx="480" cy="372" rx="70" ry="16" fill="#fff7c2" opacity="0.8"/>`,
  chair: (ink, accent) => `
    <rect x="370" y="170" width="220" height="220" rx="24" fill="${accent}"/>
    <rect x="350" y="380" width="260" height="60" rx="18" fill="${accent}"/>
    <rect x="370" y="440" width="18" height="170" fill="${ink}"/>
    <rect x="572" y="440" width="18" height="170" fill="${ink}"/>`,
  mug: (ink, accent) => `
    <rect x="360" y="250" width="220" height="280" rx="28" fill="${accent}"/>
    <path d="M580 310 C680 310 680 470 580 470" fill="none" stroke="${accent}" stroke-width="34"/>
    <path d="M420 200 C400 160 450 140 430 100 M500 200 C480 160 530 140 510 100" fill="none" stroke="${ink}"
      stroke-width="10" stroke-linecap="round" opacity="0.5"/>`,
  plant: (ink, accent) => `
    <path d="M400 440 L560 440 L535 600 L425 600 Z" fill="${ink}"/>
    <ellipse cx="430" cy="330" rx="50" ry="110" transform="rotate(-30 430 330)" fill="${accent}"/>
    <ellipse cx="530" cy="320" rx="50" ry="120" transform="rotate(25 530 320)" fill="${accent}"/>
    <ellipse cx="480" cy="290" rx="44" ry="140" fill="${accent}" opacity="0.85"/>`,
  clock: (ink, accent) => `
    <circle cx="480" cy="360" r="200" fill="${accent}"/>
    <circle cx="480" cy="360" r="170" fill="#ffffff" opacity="0.9"/>
    <rect x="474" y="230" width="12" height="136" rx="6" fill="${ink}"/>
    <rect x="474" y="354" width="100" height="12" rx="6" fill="${ink}"/>
    <circle cx="480" cy="360" r="14" fill="${ink}"/>`,
  vase: (ink, accent) => `
    <path d="M430 160 L530 160 L520 230 C640 300 640 520 560 600 L400 600 C320 520 320 300 440 230 Z"
      fill="${accent}"/>
    <path d="M360 420 C430 390 530 450 600 420" fill="none" stroke="${ink}" stroke-width="12" opacity="0.6"/>`,
};

/**
 * A product photo stand-in as JPEG: the motif on a soft gradient of `hue` (0–360), `angle` turning the light so that
 * the pictures of one gallery differ.
 */
export function productPicture(motif: Motif, hue: number, angle = 0): Promise<Buffer> {
  const light = `hsl(${hue}, 45%, 92%)`;
  const shade = `hsl(${hue}, 35%, 78%)`;
  const accent = `hsl(${(hue + 180) % 360}, 55%, 48%)`;
  const ink = `hsl(${hue}, 25%, 22%)`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
    <defs>
      <linearGradient id="bg" gradientTransform="rotate(${45 + angle} 0.5 0.5)">
        <stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="${shade}"/>
      </linearGradient>
    </defs>
    <rect width="100%" height="100%" fill="url(#bg)"/>
    <ellipse cx="480" cy="640" rx="300" ry="30" fill="${ink}" opacity="0.12"/>
    ${MOTIFS[motif](ink, accent)}
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toBuffer();
}

/** A one-page PDF, enough for the type check and a file name in the lists. */
export function pdfDocument(title: string): Buffer {
  return Buffer.from(`%PDF-1.7\n% ${title}\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n`);
}
