import type { Device } from '@/campaigns/campaigns/devices';

/** A demo campaign as an operator would enter it: keywords comma-separated, bids in units. */
export interface DemoCampaign {
  name: string;
  text: string;
  /** Specific phrases, as the README advises: no generic word alone, no bare homonym. */
  keywords: string;
  bid: string;
  targetUrl: string;
  imageUrl?: string;
  /** An IAB content category id (`CONTENT_CATEGORIES`): publishers may block it. */
  category: string;
  countries?: string[];
  devices?: Device[];
}

export interface DemoAdvertiser {
  name: string;
  contactEmail: string;
  campaigns: DemoCampaign[];
}

const TECHNOLOGY = '596';
const EDUCATION = '132';
const TRAVEL = '653';
const PERSONAL_FINANCE = '391';

/**
 * Five advertisers, so that `max_ads: 3` shows three ads (one per advertiser): the printed
 * request ("gpu, machine learning") gets the GPU cloud first, then the machine-learning
 * bootcamp and the laptops. The Python course says which Python it means ("python course",
 * not "python"), so a ball python gets no ad; travel is targeted at five countries and the
 * budget app at phones and tablets; the campaigns fall in four categories.
 */
export const DEMO_ADVERTISERS: DemoAdvertiser[] = [
  {
    name: 'Kestrel Compute',
    contactEmail: 'ads@kestrel-compute.example',
    campaigns: [
      {
        name: 'GPU Cloud for ML',
        text: 'Train your models 3x faster on rented GPUs. First 10 hours free.',
        keywords: 'gpu, cloud gpu, gpu rental, machine learning, deep learning',
        bid: '0.45',
        targetUrl: 'https://example.com/gpu-cloud',
        category: TECHNOLOGY,
      },
    ],
  },
  {
    name: 'Featherline Laptops',
    contactEmail: 'marketing@featherline.example',
    campaigns: [
      {
        name: 'Lightweight Laptops',
        text: 'Ultra-light laptops with a dedicated GPU and all-day battery, built for developers.',
        keywords: 'laptop, laptop for programming, gpu laptop, laptop for machine learning',
        bid: '0.30',
        targetUrl: 'https://example.com/laptops',
        imageUrl: 'https://example.com/images/laptop.png',
        category: TECHNOLOGY,
      },
    ],
  },
  {
    name: 'Lumen Code Academy',
    contactEmail: 'partners@lumen-code.example',
    campaigns: [
      {
        name: 'Learn Python Online',
        text: 'Interactive Python courses, from first steps to data science.',
        keywords:
          'python course, python for beginners, python bootcamp, coding bootcamp, learn to code',
        bid: '0.25',
        targetUrl: 'https://example.com/python-course',
        category: EDUCATION,
      },
      {
        name: 'Machine Learning Bootcamp',
        text: 'Twelve weeks from linear regression to neural networks, with a mentor.',
        keywords: 'machine learning course, deep learning course, learn machine learning',
        bid: '0.40',
        targetUrl: 'https://example.com/ml-bootcamp',
        category: EDUCATION,
      },
    ],
  },
  {
    name: 'Wanderway Travel',
    contactEmail: 'ads@wanderway.example',
    campaigns: [
      {
        name: 'Travel Deals Europe',
        text: 'City breaks across Europe from 49 EUR, flights included.',
        keywords: 'city break, cheap flights, europe travel, weekend getaway, hotel deals',
        bid: '0.35',
        targetUrl: 'https://example.com/travel',
        category: TRAVEL,
        countries: ['DE', 'FR', 'NL', 'AT', 'CH'],
      },
    ],
  },
  {
    name: 'Ledgerly',
    contactEmail: 'growth@ledgerly.example',
    campaigns: [
      {
        name: 'Mobile Budget App',
        text: 'Track spending on your phone and save 15% a month.',
        keywords: 'budget app, budgeting, expense tracker, saving money',
        bid: '0.20',
        targetUrl: 'https://example.com/budget-app',
        category: PERSONAL_FINANCE,
        devices: ['mobile', 'tablet'],
      },
    ],
  },
];
