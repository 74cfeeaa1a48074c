import type { WireRecord } from "../contract/validate.js";
import { VEHICLE_FIELDS } from "../contract/vehicle-fields.js";
import type { ExtraRow, ImageRow, SandboxState, VehicleRow } from "./rows.js";

/**
 * Seed data of the sandbox: reference catalogs (fixed, never persisted) and
 * the initial inventory (vehicles, extras and images of the demo owners in
 * owners.ts) that a fresh or reset data file starts from. Row types: rows.ts.
 *
 * Everything here is plain data; the only work done at import time is
 * building a few hundred small objects.
 *
 * Identifier ranges are deliberately different per catalog so that a client
 * that mixes them up (a model id sent as a configuration id, a year sent as a
 * year-of-issue id) gets a 400 instead of a silent wrong answer:
 * brands 1.., models 101.., configurations (equipments) 1001.., years of
 * issue 1.. (id 1 = 2008), everything else 1...
 */

// ---------------------------------------------------------------- locales

export type LocaleCode = "en" | "de" | "es";
/** A name: plain (same in every locale) or translated (English is the fallback). */
export type Text = string | { en: string; de?: string; es?: string };

export interface Locale {
  id: number;
  name: string;
  code: string;
}

/** 40 = English (the default). German and Spanish are translated; French and Italian fall back to English names. */
export const LOCALES: readonly Locale[] = [
  { id: 40, name: "English", code: "en" },
  { id: 25, name: "Deutsch", code: "de" },
  { id: 18, name: "Español", code: "es" },
  { id: 33, name: "Français", code: "fr" },
  { id: 45, name: "Italiano", code: "it" },
];

const LOCALE_CODE = new Map(LOCALES.map((l) => [l.id, l.code]));

export function isLocale(id: number): boolean {
  return LOCALE_CODE.has(id);
}

/** Name of `t` in locale `localeId`; English when there is no translation. */
export function translate(t: Text, localeId: number): string {
  if (typeof t === "string") return t;
  const code = LOCALE_CODE.get(localeId);
  if (code === "de" && t.de) return t.de;
  if (code === "es" && t.es) return t.es;
  return t.en;
}

const tr = (en: string, de: string, es: string): Text => ({ en, de, es });

// ---------------------------------------------------------------- simple catalogs

export interface Currency {
  id: number;
  code: string;
  symbol: string;
  name: string;
}

export const CURRENCIES: readonly Currency[] = [
  { id: 1, code: "EUR", symbol: "€", name: "Euro" },
  { id: 2, code: "USD", symbol: "$", name: "US Dollar" },
  { id: 3, code: "GBP", symbol: "£", name: "Pound Sterling" },
  { id: 4, code: "CHF", symbol: "CHF", name: "Swiss Franc" },
  { id: 5, code: "PLN", symbol: "zł", name: "Polish Złoty" },
  { id: 6, code: "CZK", symbol: "Kč", name: "Czech Koruna" },
  { id: 7, code: "SEK", symbol: "kr", name: "Swedish Krona" },
  { id: 8, code: "AED", symbol: "د.إ", name: "UAE Dirham" },
  { id: 9, code: "JPY", symbol: "¥", name: "Japanese Yen" },
  { id: 10, code: "TRY", symbol: "₺", name: "Turkish Lira" },
];

export interface Segment {
  id: number;
  name: Text;
  realm: string;
}

export const SEGMENTS: readonly Segment[] = [
  { id: 1, name: tr("Cars", "Autos", "Coches"), realm: "cars" },
  { id: 2, name: tr("Motorcycles", "Motorräder", "Motocicletas"), realm: "motorcycles" },
  { id: 3, name: tr("Boats", "Boote", "Barcos"), realm: "boats" },
];

/** An item of a catalog that belongs to one segment. */
export interface SegmentItem {
  id: number;
  name: Text;
  segment_id: number;
}

function bySegment(groups: Record<number, Text[]>): SegmentItem[] {
  const out: SegmentItem[] = [];
  let id = 1;
  for (const [segment, names] of Object.entries(groups)) {
    for (const name of names) out.push({ id: id++, name, segment_id: Number(segment) });
  }
  return out;
}

export const CLASSES: readonly SegmentItem[] = bySegment({
  1: [
    tr("Economy", "Kleinwagen", "Económico"),
    tr("Compact", "Kompaktklasse", "Compacto"),
    tr("Midsize", "Mittelklasse", "Intermedio"),
    tr("SUV", "SUV", "SUV"),
    tr("Premium", "Oberklasse", "Premium"),
    tr("Minivan", "Van", "Monovolumen"),
    tr("Convertible", "Cabrio", "Descapotable"),
    tr("Electric", "Elektro", "Eléctrico"),
  ],
  2: [
    tr("Scooter", "Motorroller", "Escúter"),
    tr("Naked", "Naked Bike", "Naked"),
    tr("Sport", "Supersportler", "Deportiva"),
    tr("Touring", "Tourer", "Turismo"),
    tr("Adventure", "Reiseenduro", "Trail"),
  ],
  3: [
    tr("Sailing yacht", "Segelyacht", "Velero"),
    tr("Motor boat", "Motorboot", "Lancha motora"),
    tr("Catamaran", "Katamaran", "Catamarán"),
    tr("RIB", "Festrumpfschlauchboot", "Semirrígida"),
    tr("Jet ski", "Jetski", "Moto de agua"),
  ],
});

export const TRANSMISSIONS: readonly SegmentItem[] = bySegment({
  1: [
    tr("Manual", "Schaltgetriebe", "Manual"),
    tr("Automatic", "Automatik", "Automática"),
    tr("Semi-automatic", "Halbautomatik", "Semiautomática"),
    tr("CVT", "Stufenlos (CVT)", "CVT"),
  ],
  2: [
    tr("Manual", "Schaltgetriebe", "Manual"),
    tr("Automatic (CVT)", "Automatik (CVT)", "Automática (CVT)"),
    tr("Dual-clutch (DCT)", "Doppelkupplung (DCT)", "Doble embrague (DCT)"),
  ],
  3: [
    tr("Outboard", "Außenborder", "Fueraborda"),
    tr("Inboard shaft", "Innenborder (Welle)", "Intraborda (eje)"),
    tr("Sterndrive", "Z-Antrieb", "Dentro-fueraborda"),
    tr("Sail", "Segel", "Vela"),
  ],
});

export const BENEFITS: readonly SegmentItem[] = bySegment({
  1: [
    tr("Free cancellation", "Kostenlose Stornierung", "Cancelación gratuita"),
    tr("Unlimited mileage", "Unbegrenzte Kilometer", "Kilometraje ilimitado"),
    tr("Free delivery", "Kostenlose Zustellung", "Entrega gratuita"),
    tr("24/7 roadside assistance", "24/7 Pannenhilfe", "Asistencia en carretera 24/7"),
    tr("No credit card needed", "Keine Kreditkarte nötig", "Sin tarjeta de crédito"),
  ],
  2: [
    tr("Helmet included", "Helm inklusive", "Casco incluido"),
    tr("Free cancellation", "Kostenlose Stornierung", "Cancelación gratuita"),
    tr("Riding gear available", "Motorradkleidung verfügbar", "Equipo de moto disponible"),
  ],
  3: [
    tr("Skipper available", "Skipper verfügbar", "Patrón disponible"),
    tr("Fuel included", "Kraftstoff inklusive", "Combustible incluido"),
    tr("Free cancellation", "Kostenlose Stornierung", "Cancelación gratuita"),
  ],
});

export const ADDITIONAL_FEATURES: readonly SegmentItem[] = bySegment({
  1: [
    tr("Air conditioning", "Klimaanlage", "Aire acondicionado"),
    "Bluetooth",
    tr("Cruise control", "Tempomat", "Control de crucero"),
    tr("Parking sensors", "Parksensoren", "Sensores de aparcamiento"),
    tr("Rear-view camera", "Rückfahrkamera", "Cámara trasera"),
    tr("Heated seats", "Sitzheizung", "Asientos calefactados"),
    "Apple CarPlay / Android Auto",
    tr("Navigation system", "Navigationssystem", "Navegador"),
  ],
  2: [
    "ABS",
    tr("Heated grips", "Heizgriffe", "Puños calefactables"),
    tr("Top case", "Topcase", "Baúl"),
    tr("Traction control", "Traktionskontrolle", "Control de tracción"),
  ],
  3: [
    tr("GPS chartplotter", "GPS-Kartenplotter", "Plóter GPS"),
    tr("Bow thruster", "Bugstrahlruder", "Hélice de proa"),
    tr("Swim platform", "Badeplattform", "Plataforma de baño"),
    tr("Bimini top", "Bimini", "Toldo bimini"),
  ],
});

/** Racing and tuning options (`vehicles/options`). */
export const TUNING_OPTIONS: readonly SegmentItem[] = bySegment({
  1: [
    tr("Sport exhaust", "Sportauspuff", "Escape deportivo"),
    tr("Lowered suspension", "Tieferlegung", "Suspensión rebajada"),
    tr("ECU remap", "Chiptuning", "Reprogramación de centralita"),
    tr("Track tyres", "Rennreifen", "Neumáticos de circuito"),
    tr("Roll cage", "Überrollkäfig", "Jaula antivuelco"),
  ],
  2: [
    "Quickshifter",
    tr("Racing exhaust", "Rennauspuff", "Escape de competición"),
    tr("Steering damper", "Lenkungsdämpfer", "Amortiguador de dirección"),
  ],
  3: [
    tr("Performance propeller", "Leistungspropeller", "Hélice de alto rendimiento"),
    tr("Racing sails", "Regattasegel", "Velas de regata"),
  ],
});

export interface TypedItem {
  id: number;
  name: Text;
  [member: string]: unknown;
}

export const DELIVERY_PLACES: readonly TypedItem[] = [
  { id: 1, name: tr("Airport", "Flughafen", "Aeropuerto"), type: "airport" },
  { id: 2, name: tr("Railway station", "Bahnhof", "Estación de tren"), type: "railway_station" },
  { id: 3, name: tr("Bus station", "Busbahnhof", "Estación de autobuses"), type: "bus_station" },
  { id: 4, name: tr("Hotel", "Hotel", "Hotel"), type: "hotel" },
  { id: 5, name: tr("City centre", "Stadtzentrum", "Centro de la ciudad"), type: "city_centre" },
  { id: 6, name: tr("Seaport", "Seehafen", "Puerto marítimo"), type: "port" },
  { id: 7, name: tr("Marina", "Yachthafen", "Puerto deportivo"), type: "marina" },
  { id: 8, name: tr("Customer address", "Kundenadresse", "Dirección del cliente"), type: "address" },
];

export const FUEL_POLICIES: readonly TypedItem[] = [
  { id: 1, name: tr("Full to full", "Voll zu voll", "Lleno a lleno") },
  { id: 2, name: tr("Same to same", "Gleich zu gleich", "Mismo nivel") },
  { id: 3, name: tr("Pre-purchase (return empty)", "Vorauskauf (leer zurückgeben)", "Prepago (devolver vacío)") },
  { id: 4, name: tr("Fuel included", "Kraftstoff inklusive", "Combustible incluido") },
  {
    id: 5,
    name: tr("Electric: return charged to 80%", "Elektro: mit 80 % Ladung zurück", "Eléctrico: devolver al 80 %"),
  },
];

export const DISTANCE_UNITS: readonly TypedItem[] = [
  { id: 1, name: tr("Kilometres", "Kilometer", "Kilómetros"), code: "km" },
  { id: 2, name: tr("Miles", "Meilen", "Millas"), code: "mi" },
  { id: 3, name: tr("Nautical miles", "Seemeilen", "Millas náuticas"), code: "nmi" },
  { id: 4, name: tr("Engine hours", "Motorstunden", "Horas de motor"), code: "h" },
];

export const PAYMENT_SYSTEMS: readonly TypedItem[] = [
  { id: 1, name: "Visa" },
  { id: 2, name: "Mastercard" },
  { id: 3, name: "American Express" },
  { id: 4, name: "Maestro" },
  { id: 5, name: "PayPal" },
  { id: 6, name: "Apple Pay" },
  { id: 7, name: "Google Pay" },
];

export const PAYMENT_TYPES: readonly TypedItem[] = [
  { id: 1, name: tr("Cash", "Bargeld", "Efectivo") },
  { id: 2, name: tr("Debit card", "Debitkarte", "Tarjeta de débito") },
  { id: 3, name: tr("Credit card", "Kreditkarte", "Tarjeta de crédito") },
  { id: 4, name: tr("Bank transfer", "Banküberweisung", "Transferencia bancaria") },
  { id: 5, name: tr("Online payment", "Online-Zahlung", "Pago en línea") },
];

/** Extra option types (`vehicles/extras/options`). `default_period`: 1 = per day, 2 = per rental. */
export const EXTRA_OPTIONS: readonly TypedItem[] = [
  { id: 1, name: tr("Child seat", "Kindersitz", "Silla infantil"), default_period: 1 },
  { id: 2, name: tr("Booster seat", "Sitzerhöhung", "Elevador infantil"), default_period: 1 },
  { id: 3, name: tr("GPS navigator", "GPS-Navigationsgerät", "Navegador GPS"), default_period: 1 },
  { id: 4, name: tr("Additional driver", "Zusatzfahrer", "Conductor adicional"), default_period: 2 },
  { id: 5, name: tr("Snow chains", "Schneeketten", "Cadenas para nieve"), default_period: 2 },
  { id: 6, name: tr("Roof box", "Dachbox", "Cofre de techo"), default_period: 1 },
  { id: 7, name: tr("Bike rack", "Fahrradträger", "Portabicicletas"), default_period: 1 },
  { id: 8, name: tr("Mobile Wi-Fi hotspot", "Mobiler WLAN-Hotspot", "Wi-Fi móvil"), default_period: 1 },
  { id: 9, name: tr("Helmet", "Helm", "Casco"), default_period: 2 },
  { id: 10, name: tr("Life jackets", "Rettungswesten", "Chalecos salvavidas"), default_period: 2 },
  { id: 11, name: tr("Skipper", "Skipper", "Patrón"), default_period: 1 },
];

/** Registration countries of the setup configuration (ids for `vehicle_reg_number_country`). */
export const REGISTRATION_COUNTRIES: readonly TypedItem[] = [
  { id: 1, name: tr("Germany", "Deutschland", "Alemania"), code: "DE" },
  { id: 2, name: tr("Spain", "Spanien", "España"), code: "ES" },
  { id: 3, name: tr("France", "Frankreich", "Francia"), code: "FR" },
  { id: 4, name: tr("Italy", "Italien", "Italia"), code: "IT" },
  { id: 5, name: tr("Portugal", "Portugal", "Portugal"), code: "PT" },
  { id: 6, name: tr("United Kingdom", "Vereinigtes Königreich", "Reino Unido"), code: "GB" },
  { id: 7, name: tr("Netherlands", "Niederlande", "Países Bajos"), code: "NL" },
  { id: 8, name: tr("Austria", "Österreich", "Austria"), code: "AT" },
  { id: 9, name: tr("Switzerland", "Schweiz", "Suiza"), code: "CH" },
  { id: 10, name: tr("Poland", "Polen", "Polonia"), code: "PL" },
  { id: 11, name: tr("Greece", "Griechenland", "Grecia"), code: "GR" },
  { id: 12, name: tr("Croatia", "Kroatien", "Croacia"), code: "HR" },
  { id: 13, name: tr("United States", "Vereinigte Staaten", "Estados Unidos"), code: "US" },
  { id: 14, name: tr("United Arab Emirates", "Vereinigte Arabische Emirate", "Emiratos Árabes Unidos"), code: "AE" },
  { id: 15, name: tr("Montenegro", "Montenegro", "Montenegro"), code: "ME" },
];

/** Deposit return options of the protection-plan settings (ids for the deposit_return_period fields). */
export const DEPOSIT_RETURN_OPTIONS: readonly TypedItem[] = [
  {
    id: 1,
    name: tr("On return of the vehicle", "Bei Rückgabe des Fahrzeugs", "A la devolución del vehículo"),
    days: 0,
  },
  { id: 2, name: tr("Within 3 days", "Innerhalb von 3 Tagen", "En un plazo de 3 días"), days: 3 },
  { id: 3, name: tr("Within 7 days", "Innerhalb von 7 Tagen", "En un plazo de 7 días"), days: 7 },
  { id: 4, name: tr("Within 14 days", "Innerhalb von 14 Tagen", "En un plazo de 14 días"), days: 14 },
  { id: 5, name: tr("Within 30 days", "Innerhalb von 30 Tagen", "En un plazo de 30 días"), days: 30 },
];

/** The protection plans a vehicle can offer, with the vehicle fields that price them. */
export const PROTECTION_PLANS: readonly TypedItem[] = [
  {
    id: 1,
    code: "insurance",
    name: tr("Full insurance", "Vollkasko", "Seguro a todo riesgo"),
    fields: ["vehicle_protection_plans_insurance_price", "vehicle_protection_plans_insurance_exclude_security_deposit"],
  },
  {
    id: 2,
    code: "third_party",
    name: tr("Third-party liability", "Haftpflicht", "Responsabilidad civil"),
    fields: ["vehicle_protection_plans_third_party_insurance"],
  },
  {
    id: 3,
    code: "cdw1",
    name: tr("Collision damage waiver (CDW 1)", "Teilkasko (CDW 1)", "Cobertura de daños (CDW 1)"),
    fields: [
      "vehicle_protection_plans_cdw1_price_day",
      "vehicle_protection_plans_cdw1_franchise",
      "vehicle_protection_plans_cdw1_security_deposit",
    ],
  },
  {
    id: 4,
    code: "cdw2",
    name: tr("Super collision damage waiver (CDW 2)", "Vollkasko plus (CDW 2)", "Cobertura total (CDW 2)"),
    fields: [
      "vehicle_protection_plans_cdw2_price_day",
      "vehicle_protection_plans_cdw2_franchise",
      "vehicle_protection_plans_cdw2_security_deposit",
    ],
  },
  {
    id: 5,
    code: "tire_windshield",
    name: tr("Tyres and windscreen", "Reifen und Windschutzscheibe", "Neumáticos y parabrisas"),
    fields: ["vehicle_protection_plans_tire_windshield_price_day"],
  },
  {
    id: 6,
    code: "theft",
    name: tr("Theft protection", "Diebstahlschutz", "Protección contra robo"),
    fields: ["vehicle_protection_plans_theft_price_day"],
  },
  {
    id: 7,
    code: "interior",
    name: tr("Interior protection", "Innenraumschutz", "Protección del interior"),
    fields: ["vehicle_protection_plans_interior_price_day"],
  },
  {
    id: 8,
    code: "roadside",
    name: tr("Roadside assistance", "Pannenhilfe", "Asistencia en carretera"),
    fields: ["vehicle_protection_plans_roadside_price_day"],
  },
];

export const DEPOSIT_PAYMENT_METHODS: readonly TypedItem[] = [
  { id: 1, code: "cash", name: tr("Cash", "Bargeld", "Efectivo"), field: "vehicle_protection_plans_deposit_pay_cash" },
  {
    id: 2,
    code: "debit_card",
    name: tr("Debit card", "Debitkarte", "Tarjeta de débito"),
    field: "vehicle_protection_plans_deposit_pay_debit_card",
  },
  {
    id: 3,
    code: "credit_card",
    name: tr("Credit card", "Kreditkarte", "Tarjeta de crédito"),
    field: "vehicle_protection_plans_deposit_pay_credit_card",
  },
];

/** Years of issue: id 1 = 2008 ... id 19 = 2026 (ids are not years). */
export const YEARS_OF_ISSUE: readonly TypedItem[] = Array.from({ length: 19 }, (_, i) => ({
  id: i + 1,
  name: String(2008 + i),
  year: 2008 + i,
}));

// ---------------------------------------------------------------- brands, models, configurations

export interface Brand {
  id: number;
  name: string;
  segment_id: number;
}
export interface Model {
  id: number;
  name: string;
  brand_id: number;
  segment_id: number;
}
/** A configuration ("equipment"); its id is what `vehicle_model_id` takes. */
export interface Equipment {
  id: number;
  name: string;
  model_id: number;
  brand_id: number;
  segment_id: number;
}

type Tree = [segment: number, brand: string, models: [model: string, configurations: string[]][]][];

const TREE: Tree = [
  [
    1,
    "Toyota",
    [
      ["Yaris", ["1.5 Hybrid Active", "1.5 Hybrid Style"]],
      ["Corolla", ["1.8 Hybrid Comfort", "2.0 Hybrid GR Sport"]],
      ["RAV4", ["2.5 Hybrid AWD Adventure"]],
    ],
  ],
  [
    1,
    "Volkswagen",
    [
      ["Polo", ["1.0 TSI Life"]],
      ["Golf", ["1.5 eTSI Life", "2.0 TDI Style"]],
      ["Tiguan", ["2.0 TDI 4Motion R-Line"]],
    ],
  ],
  [
    1,
    "BMW",
    [
      ["3 Series", ["320i Sport Line", "330e M Sport"]],
      ["X5", ["xDrive40i M Sport"]],
    ],
  ],
  [
    1,
    "Mercedes-Benz",
    [
      ["C-Class", ["C 200 Avantgarde", "C 300 e AMG Line"]],
      ["V-Class", ["V 250 d Avantgarde Long"]],
    ],
  ],
  [
    1,
    "Renault",
    [
      ["Clio", ["TCe 90 Evolution", "E-Tech Hybrid Techno"]],
      ["Captur", ["TCe 140 Techno"]],
    ],
  ],
  [
    1,
    "Fiat",
    [
      ["500", ["1.0 Hybrid Dolcevita"]],
      ["Panda", ["1.0 Hybrid City Life"]],
    ],
  ],
  [
    1,
    "Tesla",
    [
      ["Model 3", ["RWD", "Long Range AWD"]],
      ["Model Y", ["Long Range AWD"]],
    ],
  ],
  [
    2,
    "Honda",
    [
      ["PCX 125", ["Standard"]],
      ["CB500F", ["ABS"]],
      ["CRF1100L Africa Twin", ["Adventure Sports DCT"]],
    ],
  ],
  [
    2,
    "Yamaha",
    [
      ["NMAX 125", ["Standard"]],
      ["MT-07", ["Standard", "Pure"]],
      ["Tracer 9", ["GT+"]],
    ],
  ],
  [
    2,
    "Ducati",
    [
      ["Monster", ["Standard", "Plus"]],
      ["Multistrada V4", ["S"]],
    ],
  ],
  [
    2,
    "BMW Motorrad",
    [
      ["R 1250 GS", ["Adventure"]],
      ["F 900 R", ["Standard"]],
    ],
  ],
  [2, "Vespa", [["Primavera 125", ["Standard"]]]],
  [
    3,
    "Beneteau",
    [
      ["Oceanis 46.1", ["3 cabins"]],
      ["Flyer 8", ["Spacedeck"]],
    ],
  ],
  [
    3,
    "Jeanneau",
    [
      ["Sun Odyssey 410", ["3 cabins"]],
      ["Cap Camarat 7.5", ["WA"]],
    ],
  ],
  [3, "Lagoon", [["Lagoon 42", ["4 cabins"]]]],
  [3, "Sea Ray", [["SPX 190", ["Outboard"]]]],
  [3, "Zodiac", [["Medline 580", ["Standard"]]]],
  [3, "Sea-Doo", [["GTI 130", ["Standard"]]]],
];

function buildTree(): { brands: Brand[]; models: Model[]; equipments: Equipment[] } {
  const brands: Brand[] = [];
  const models: Model[] = [];
  const equipments: Equipment[] = [];
  let brandId = 1;
  let modelId = 101;
  let equipmentId = 1001;
  for (const [segment, brandName, brandModels] of TREE) {
    const brand: Brand = { id: brandId++, name: brandName, segment_id: segment };
    brands.push(brand);
    for (const [modelName, configurations] of brandModels) {
      const model: Model = { id: modelId++, name: modelName, brand_id: brand.id, segment_id: segment };
      models.push(model);
      for (const c of configurations) {
        equipments.push({ id: equipmentId++, name: c, model_id: model.id, brand_id: brand.id, segment_id: segment });
      }
    }
  }
  return { brands, models, equipments };
}

const TREE_BUILT = buildTree();
export const BRANDS: readonly Brand[] = TREE_BUILT.brands;
export const MODELS: readonly Model[] = TREE_BUILT.models;
export const EQUIPMENTS: readonly Equipment[] = TREE_BUILT.equipments;

/** Configuration id of a brand/model/configuration triple (seed helper; throws when absent). */
export function equipmentId(brand: string, model: string, configuration: string): number {
  const b = BRANDS.find((x) => x.name === brand);
  const m = MODELS.find((x) => x.name === model && x.brand_id === b?.id);
  const e = EQUIPMENTS.find((x) => x.name === configuration && x.model_id === m?.id);
  if (!e) throw new Error(`seed: no configuration ${brand} ${model} ${configuration}`);
  return e.id;
}

function classId(segment: number, englishName: string): number {
  const c = CLASSES.find((x) => x.segment_id === segment && translate(x.name, 40) === englishName);
  if (!c) throw new Error(`seed: no class ${englishName} in segment ${segment}`);
  return c.id;
}

function yearId(year: number): number {
  const y = YEARS_OF_ISSUE.find((x) => x.year === year);
  if (!y) throw new Error(`seed: no year ${year}`);
  return y.id;
}

// ---------------------------------------------------------------- inventory

/**
 * A complete, valid `vehicles/create` body for owner `userId` (a Toyota
 * Corolla in Berlin). Tests and docs use it as the known-good starting point.
 */
export function sampleVehicleInput(userId: number): WireRecord {
  return {
    user_id: userId,
    pickup_location: "Berlin, Alexanderplatz 1",
    vehicle_class_id: classId(1, "Compact"),
    vehicle_model_id: equipmentId("Toyota", "Corolla", "1.8 Hybrid Comfort"),
    vehicle_segment_id: 1,
    vehicle_year_of_issue_id: yearId(2023),
    vehicle_reg_number: "B-SC 1234",
    vehicle_reg_number_country: 1,
    vehicle_activity: 1,
    price_per_day: 45,
    price_per_3days: 42,
    price_per_week: 39,
    price_per_14days: 35,
    vehicle_currency_id: 1,
    vehicle_protection_plans_no_deposit: 1,
    vehicle_protection_plans_third_party_insurance: 1,
    vehicle_protection_plans_deposit_price: 300,
    vehicle_distance_included: 250,
    vehicle_surcharge_for_excess: 1,
    price_surcharge_over_time: 900,
    vehicle_minimal_renting_period: 1,
    vehicle_minimal_age_to_rent: 21,
    vehicle_drivers_experience: 2,
    vehicle_passenger_capacity: 5,
    vehicle_luggage_capacity: 3,
    vehicle_fuel_policy: 1,
  };
}

/** Stored vehicle fields in the order of VEHICLE_FIELDS (`locale_id` is a request option, never stored). */
export function orderVehicleFields(fields: WireRecord): WireRecord {
  const out: WireRecord = {};
  for (const spec of VEHICLE_FIELDS) {
    const v = fields[spec.name];
    if (spec.name !== "locale_id" && v !== undefined) out[spec.name] = v;
  }
  return out;
}

const SEED_TIME = "2025-01-15T09:00:00Z";

/** A fresh copy of the seed inventory (callers may keep and mutate it). */
export function seedState(): SandboxState {
  const car = (id: number, owner: number, fields: WireRecord): VehicleRow => ({
    id,
    owner,
    fields: orderVehicleFields({ ...sampleVehicleInput(owner), ...fields }),
    created_at: SEED_TIME,
    updated_at: SEED_TIME,
  });
  const vehicles: VehicleRow[] = [
    car(1, 1001, {
      vehicle_reg_number: "B-SC 1001",
      vehicle_vin: "JTDBR32E720123456",
      vehicle_odometer: "18400",
      vehicle_images: [1, 2],
      vehicle_extras: [1, 2],
      vehicle_benefits_id: [1, 4],
      vehicle_options_id: [1, 2, 5],
      vehicle_payment_types: [2, 3],
      vehicle_delivery_address_fixed_place: [1, 2],
      vehicle_delivery_address_fixed_price: [25, 15],
      vehicle_protection_plans_deposit_return_period_card: 2,
      vehicle_description: "Economical hybrid, ideal for the city and the motorway.",
    }),
    car(2, 1001, {
      pickup_location: "Munich Airport, Terminal 2",
      vehicle_class_id: classId(1, "SUV"),
      vehicle_model_id: equipmentId("Volkswagen", "Tiguan", "2.0 TDI 4Motion R-Line"),
      vehicle_year_of_issue_id: yearId(2022),
      vehicle_reg_number: "M-SC 2002",
      price_per_day: 79,
      price_per_3days: 74,
      price_per_week: 69,
      price_per_14days: 62,
      vehicle_protection_plans_deposit_price: 800,
      vehicle_minimal_age_to_rent: 23,
      vehicle_passenger_capacity: 5,
      vehicle_luggage_capacity: 5,
      vehicle_booking_lead_time: 1,
    }),
    car(3, 1001, {
      pickup_location: "Hamburg, Jungfernstieg",
      vehicle_class_id: classId(1, "Electric"),
      vehicle_model_id: equipmentId("Tesla", "Model 3", "RWD"),
      vehicle_year_of_issue_id: yearId(2024),
      vehicle_reg_number: "HH-SC 3003",
      vehicle_activity: 0,
      price_per_day: 95,
      price_per_3days: 89,
      price_per_week: 82,
      price_per_14days: 75,
      vehicle_fuel_policy: 5,
      vehicle_availability_calendar: "24.12.2025,25.12.2025,31.12.2025",
    }),
    car(4, 1002, {
      pickup_location: "Palma de Mallorca, Passeig Marítim",
      vehicle_class_id: classId(2, "Naked"),
      vehicle_model_id: equipmentId("Yamaha", "MT-07", "Standard"),
      vehicle_segment_id: 2,
      vehicle_year_of_issue_id: yearId(2023),
      vehicle_reg_number: "1234-KLM",
      vehicle_reg_number_country: 2,
      price_per_day: 65,
      price_per_3days: 60,
      price_per_week: 55,
      price_per_14days: 50,
      vehicle_passenger_capacity: 2,
      vehicle_luggage_capacity: 1,
      vehicle_images: [3],
      vehicle_extras: [4],
    }),
    car(5, 1002, {
      pickup_location: "Palma de Mallorca, Club de Mar",
      vehicle_class_id: classId(3, "Sailing yacht"),
      vehicle_model_id: equipmentId("Beneteau", "Oceanis 46.1", "3 cabins"),
      vehicle_segment_id: 3,
      vehicle_year_of_issue_id: yearId(2021),
      vehicle_reg_number: "7-PM-1-23-21",
      vehicle_reg_number_country: 2,
      price_per_day: 690,
      price_per_3days: 650,
      price_per_week: 600,
      price_per_14days: 560,
      vehicle_protection_plans_deposit_price: 3000,
      vehicle_distance_unit_id: 4,
      vehicle_minimal_renting_period: 3,
      vehicle_passenger_capacity: 10,
      vehicle_luggage_capacity: 8,
      vehicle_fuel_policy: 2,
    }),
  ];
  const extra = (id: number, owner: number, fields: WireRecord, is_active: 0 | 1 = 1): ExtraRow => ({
    id,
    owner,
    fields,
    is_active,
    created_at: SEED_TIME,
    updated_at: SEED_TIME,
  });
  const extras: ExtraRow[] = [
    extra(1, 1001, { option_id: 1, price: 5, currency_id: 1, period: 1, quantity: 4 }),
    extra(2, 1001, { option_id: 4, price: 10, currency_id: 1, period: 2, quantity: 2 }),
    extra(3, 1001, { option_id: 5, price: 15, currency_id: 1, period: 2, quantity: 2 }, 0),
    extra(4, 1002, { option_id: 9, price: 5, currency_id: 1, period: 1, quantity: 6 }),
  ];
  const image = (id: number, owner: number, file_name: string, size: number): ImageRow => ({
    id,
    owner,
    file_name,
    size,
    content_type: "image/jpeg",
    created_at: SEED_TIME,
  });
  const images: ImageRow[] = [
    image(1, 1001, "corolla-front.jpg", 245_760),
    image(2, 1001, "corolla-interior.jpg", 198_412),
    image(3, 1002, "mt07-side.jpg", 312_005),
  ];
  return { next: { vehicle: 6, extra: 5, image: 4 }, vehicles, extras, images };
}
