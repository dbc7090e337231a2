/** Charts of the design system (uPlot): time series and histograms with PNG/CSV download. */
export { type ChartSeries, TimeChart, type TimeChartProps } from "./time-chart.tsx";
export { type HistogramBin, HistogramChart, type HistogramChartProps } from "./histogram-chart.tsx";
export { COMPARE_COLOR_COUNT, compareColor, type Phase, PHASE_COLORS } from "./palette.ts";
