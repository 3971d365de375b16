import type { MatchLanguage } from './language';

/**
 * The generic words (docs/relevance.md#glossary), one form each: a word is compared with
 * them by its spelling and by its stem in their language. A catalog of millions shows such
 * words as common by their counts; a catalog of fifty cannot, hence this short list. Stop
 * words come from the stop-word package and need no entry here.
 */
export const GENERIC_WORDS: Readonly<Record<MatchLanguage, readonly string[]>> = splitWords({
  en: `app best buy cheap course class lesson deal discount free guide help new offer online
    plan platform price pro product review sale service shop software store subscription tool
    top tips learn learning solution company provider near local quality premium professional official
    website web digital smart easy fast good great kit set order delivery booking book rent
    rental hire compare comparison low cost affordable gift`,
  de: `kaufen günstig billig kostenlos gratis angebot beste kurs dienst dienstleistung laden
    preis vergleich test neu rabatt lernen buchen mieten lieferung anbieter tipps`,
  fr: `acheter cher gratuit offre meilleur meilleure ligne cours boutique magasin prix
    comparatif avis apprendre nouveau réduction promo réserver réservation louer location livraison
    logiciel conseils application`,
  es: `comprar barato gratis oferta mejor línea curso clase servicio tienda precio comparar
    opiniones aprender nuevo descuento reservar reserva alquilar alquiler envío programa aplicación
    consejos`,
});

function splitWords(
  lists: Record<MatchLanguage, string>,
): Record<MatchLanguage, readonly string[]> {
  const split = (words: string) => words.trim().split(/\s+/);
  return { en: split(lists.en), de: split(lists.de), fr: split(lists.fr), es: split(lists.es) };
}
