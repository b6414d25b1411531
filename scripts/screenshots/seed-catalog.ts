import { eventually } from '../../test/support/wait.js';
import type { Api } from './api.js';
import { pdfDocument, productPicture, type Motif } from './pictures.js';

const PRODUCTS: Array<{ name: string; description: string; motif: Motif; hue: number }> = [
  {
    name: 'Brass desk lamp',
    description: 'Adjustable arm, brass shade, 40 cm. E27, LED bulb included.',
    motif: 'lamp',
    hue: 40,
  },
  { name: 'Oak lounge chair', description: 'Solid oak frame, wool cushion in moss green.', motif: 'chair', hue: 110 },
  { name: 'Stoneware mug', description: 'Hand-glazed, 350 ml, dishwasher safe.', motif: 'mug', hue: 200 },
  { name: 'Fiddle leaf fig', description: 'About 90 cm tall, in a 21 cm nursery pot.', motif: 'plant', hue: 150 },
  { name: 'Wall clock, 30 cm', description: 'Silent quartz movement, birch face.', motif: 'clock', hue: 20 },
  { name: 'Ceramic vase', description: 'Matte white, 28 cm, hand-thrown.', motif: 'vase', hue: 260 },
];

const ARTICLES = ['Spring collection 2027', 'Caring for oak furniture', 'How we pack fragile goods'];

/** The product whose edit page the screenshots show: the lamp, with a cover, a gallery and a PDF. */
export interface Catalog {
  productId: number;
}

/**
 * Products with a cover (some written by the ERP integration, so the audit log names it), the lamp with a gallery
 * of three pictures and a data sheet, and articles with a thumbnail and attachments.
 */
export async function seedCatalog(admin: Api, erp: Api): Promise<Catalog> {
  const ids: number[] = [];
  for (const [index, product] of PRODUCTS.entries()) {
    const by = index % 2 === 0 ? admin : erp;
    const { id } = await by.call<{ id: number }>('POST', '/products', {
      name: product.name,
      description: product.description,
    });
    ids.push(id);
    const cover = await productPicture(product.motif, product.hue);
    await by.upload(`/files/product/${id}/cover`, [
      { name: `${slug(product.name)}.jpg`, type: 'image/jpeg', bytes: cover },
    ]);
  }
  const lamp = PRODUCTS[0];
  const gallery = await Promise.all(
    [60, 120, 200].map(async (angle, index) => ({
      name: `${slug(lamp.name)}-${index + 1}.jpg`,
      type: 'image/jpeg',
      bytes: await productPicture(lamp.motif, (lamp.hue + angle / 4) % 360, angle),
    })),
  );
  gallery.push({ name: 'desk-lamp-data-sheet.pdf', type: 'application/pdf', bytes: pdfDocument('Data sheet') });
  await admin.upload(`/files/product/${ids[0]}/gallery`, gallery);
  await erp.call('PATCH', `/products/${ids[2]}`, {
    description: 'Hand-glazed, 350 ml. Dishwasher and microwave safe.',
  });

  for (const [index, title] of ARTICLES.entries()) {
    const { id } = await admin.call<{ id: number }>('POST', '/articles', { title });
    const picture = await productPicture(PRODUCTS[index].motif, PRODUCTS[index].hue + 30);
    await admin.upload(`/files/article/${id}/thumbnail`, [
      { name: `${slug(title)}.jpg`, type: 'image/jpeg', bytes: picture },
    ]);
    if (index === 0) {
      await admin.upload(`/files/article/${id}/attachments`, [
        { name: 'lookbook.pdf', type: 'application/pdf', bytes: pdfDocument('Lookbook') },
      ]);
    }
  }
  await settleVariants(admin);
  return { productId: ids[0] };
}

/** Waits until every image variant is made (a response shows `null` for one still being made). */
async function settleVariants(admin: Api): Promise<void> {
  type File = { variants?: Record<string, unknown> | null } | null;
  const pending = (file: File | undefined) => Object.values(file?.variants ?? {}).some((variant) => variant === null);
  await eventually(
    'the image variants',
    async () => {
      const page = await admin.call<{ items: Array<{ cover?: File; gallery?: File[] }> }>('GET', '/products?limit=100');
      const waiting = page.items.some((item) => pending(item.cover) || (item.gallery ?? []).some(pending));
      return waiting ? undefined : true;
    },
    60_000,
    250,
  );
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
