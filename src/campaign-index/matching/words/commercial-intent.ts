import { wordHash } from './normalise';

/**
 * Words by which a person shows they want to get something (read by `readConversation`) ("buy", "recommend", "which
 * … should I", "wo bekomme ich", "où acheter", "dónde comprar"), in their inflected forms:
 * a conversation without one is more often curiosity than a need ("why is it called the
 * Left Bank?"), so a weak match there is more often a wrong ad. A short curated lexicon,
 * like the generic words, because no maintained package tells commercial intent apart.
 */
const INTENT_WORDS = `
  buy buying bought purchase purchasing price prices pricing cost costs cheap cheaper cheapest
  afford affordable recommend recommendation recommendations suggest suggestions advice advise
  where which
  best worth subscribe subscription order ordering book booking deal deals discount shop
  shopping store app apps rent renting hire get getting need needs looking want compare
  comparison option options good better should plan planning try
  kaufen kaufe kauft gekauft preis preise kosten kostet günstig günstiger billig empfehlen
  empfiehlst empfehlung empfehlungen wo welche welcher welches beste besten lohnt abo
  bestellen bestelle buchen buche angebot angebote rabatt shop laden app mieten miete
  brauche brauchen suche suchen will möchte möchten vergleich vergleichen gut gute besser
  tipp tipps rat ratschlag sollte soll
  acheter achète acheté prix coût coûte cher chère recommander recommandes conseilles
  conseil conseils où quel quelle quels quelles meilleur meilleure meilleurs vaut abonnement
  commander réserver réservation offre offres promo boutique magasin appli application
  louer location besoin cherche cherchez veux voudrais comparer comparatif bon bonne mieux
  dois devrais essayer
  comprar compro compré precio precios cuesta cuestan barato barata baratos recomiendas
  recomendar recomendación dónde donde cuál cuáles mejor mejores vale suscripción pedir
  reservar reserva oferta ofertas descuento tienda app aplicación alquilar alquiler
  necesito necesitamos busco buscando quiero quisiera comparar bueno buena debería probar
  consejo consejos
`;

const INTENT_HASHES: ReadonlySet<number> = new Set(
  INTENT_WORDS.trim()
    .split(/\s+/)
    .map((word) => wordHash(word.normalize('NFKC'))),
);

/** Whether the word of `hash` (a `wordHash`) shows a wish to get something. */
export function isIntentWord(hash: number): boolean {
  return INTENT_HASHES.has(hash);
}
